//! Behind a reverse proxy, who the client is: only a connection from an address the owner
//! trusts (`serve --trusted-proxy`) may name the client, in the one header the owner chose, and
//! the client is the right-most address in it that is not a trusted proxy (the hops to its left
//! were written by whoever connected, and may be lies). Every per-address rule then applies to
//! that client; a proxied client is never "this machine", wherever the proxy runs.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// The header a trusted proxy names the client in. Only that one is read: a header the proxy
/// does not write passes through it untouched, so whoever connects could fill it in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, ...` (nginx's `$proxy_add_x_forwarded_for`, Caddy).
    #[default]
    XForwardedFor,
    /// RFC 7239 `Forwarded: for=client, for=proxy1` (HAProxy's `option forwarded`...).
    Forwarded,
}

/// The proxies a server trusts to name their clients.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies {
    addresses: Vec<IpAddr>,
    header: ForwardedHeader,
}

/// Who sent a request: the client's address, and whether a trusted proxy named it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// The client's address (the proxy's own when it named nobody it could be sure of).
    pub ip: IpAddr,
    /// Whether the request came through a trusted proxy.
    pub via_proxy: bool,
}

impl TrustedProxies {
    /// Trusts `addresses` to name their clients in `header`.
    pub fn new(addresses: Vec<IpAddr>, header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies {
            addresses: addresses.into_iter().map(|ip| ip.to_canonical()).collect(),
            header,
        }
    }

    /// Whether any proxy is trusted.
    pub fn any(&self) -> bool {
        !self.addresses.is_empty()
    }

    /// Whether a connection from `ip` is a trusted proxy's.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.addresses.contains(&ip.to_canonical())
    }

    /// Who sent a request that came from `peer` with `headers`: `peer` itself unless it is a
    /// trusted proxy; else the right-most address of the forwarding header that is not a
    /// trusted proxy. A hop that cannot be read (`unknown`, an obfuscated name, garbage) stops
    /// the walk at the trusted hop that wrote it: the client is then that proxy, whose limits
    /// its clients share, rather than anyone the header's writer claims.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> Client {
        if !self.trusts(peer) {
            return Client {
                ip: peer,
                via_proxy: false,
            };
        }
        let mut nearest = peer.to_canonical();
        for hop in self.hops(headers).into_iter().rev() {
            match hop {
                Some(ip) if self.trusts(ip) => nearest = ip.to_canonical(),
                Some(ip) => {
                    return Client {
                        ip: ip.to_canonical(),
                        via_proxy: true,
                    };
                }
                None => break,
            }
        }
        Client {
            ip: nearest,
            via_proxy: true,
        }
    }

    /// The addresses the chosen header lists, left (farthest) to right (nearest), every line
    /// of it in order; None for a hop that is not an address.
    fn hops(&self, headers: &HeaderMap) -> Vec<Option<IpAddr>> {
        let name = match self.header {
            ForwardedHeader::XForwardedFor => "x-forwarded-for",
            ForwardedHeader::Forwarded => "forwarded",
        };
        let mut hops = Vec::new();
        for value in headers.get_all(name) {
            let Ok(value) = value.to_str() else {
                hops.push(None);
                continue;
            };
            for element in value.split(',') {
                hops.push(match self.header {
                    ForwardedHeader::XForwardedFor => address(element),
                    ForwardedHeader::Forwarded => forwarded_for(element),
                });
            }
        }
        hops
    }
}

/// The `for=` of one element of a `Forwarded` header (`for=192.0.2.1;proto=https`).
fn forwarded_for(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("for")
            .then(|| address(value.trim().trim_matches('"')))?
    })
}

/// An address as proxies write one: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`.
fn address(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            text.strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .and_then(|t| t.parse().ok())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    fn with(name: &'static str, values: &[&'static str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append(name, HeaderValue::from_static(v));
        }
        headers
    }

    fn proxied(addr: &str) -> Client {
        Client {
            ip: ip(addr),
            via_proxy: true,
        }
    }

    #[test]
    fn the_client_is_the_right_most_untrusted_hop_of_a_trusted_proxy() {
        let trusted = TrustedProxies::new(
            vec![ip("10.0.0.1"), ip("10.0.0.2")],
            ForwardedHeader::XForwardedFor,
        );
        // The client wrote a lie to the left; the proxy appended the real address.
        let headers = with("x-forwarded-for", &["127.0.0.1, 198.51.100.7"]);
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &headers),
            proxied("198.51.100.7")
        );
        // Two proxies in a row: both skipped.
        let headers = with(
            "x-forwarded-for",
            &["203.0.113.5", "198.51.100.7, 10.0.0.2"],
        );
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &headers),
            proxied("198.51.100.7")
        );
        // Not from a trusted proxy: the header is the sender's own words, and ignored.
        assert_eq!(
            trusted.client(ip("192.0.2.9"), &headers),
            Client {
                ip: ip("192.0.2.9"),
                via_proxy: false
            }
        );
        // A trusted proxy naming nobody, or nobody readable: the proxy itself.
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &HeaderMap::new()),
            proxied("10.0.0.1")
        );
        let headers = with("x-forwarded-for", &["198.51.100.7, unknown, 10.0.0.2"]);
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &headers),
            proxied("10.0.0.2")
        );
        // Ports and brackets as proxies write them.
        let headers = with("x-forwarded-for", &["[2001:db8::1]:4711"]);
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &headers),
            proxied("2001:db8::1")
        );
        // An IPv4 proxy seen through a dual-stack socket is the same proxy.
        assert!(trusted.trusts(ip("::ffff:10.0.0.1")));
    }

    #[test]
    fn only_the_chosen_header_is_read() {
        let xff = TrustedProxies::new(vec![ip("10.0.0.1")], ForwardedHeader::XForwardedFor);
        let rfc = TrustedProxies::new(vec![ip("10.0.0.1")], ForwardedHeader::Forwarded);
        let mut headers = with(
            "forwarded",
            &[r#"for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711""#],
        );
        headers.append("x-forwarded-for", HeaderValue::from_static("203.0.113.9"));
        assert_eq!(
            rfc.client(ip("10.0.0.1"), &headers),
            proxied("2001:db8:cafe::17")
        );
        assert_eq!(xff.client(ip("10.0.0.1"), &headers), proxied("203.0.113.9"));
        let headers = with("forwarded", &["for=_hidden, For=198.51.100.3"]);
        assert_eq!(
            rfc.client(ip("10.0.0.1"), &headers),
            proxied("198.51.100.3")
        );
        let headers = with("forwarded", &["for=198.51.100.3, for=_hidden"]);
        assert_eq!(rfc.client(ip("10.0.0.1"), &headers), proxied("10.0.0.1"));
    }
}
