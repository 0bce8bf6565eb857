// A player's colour as text on the overlay's card: lightened (keeping its hue) until it reads at
// 4.5:1 or better (WCAG AA) over the card, whatever lies behind the card (a stream's picture,
// the room's felt): the card's worst background is its translucent dark over white.

/** The card's colour and opacity (overlay.html's `.card`). */
export const CARD = { rgb: [14, 12, 20], alpha: 0.82 };

const channel = (c) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** The relative luminance of an `[r, g, b]` colour (0-255). */
export function luminance([r, g, b]) {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two `[r, g, b]` colours (1 to 21). */
export function contrast(a, b) {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The card over white: the lightest background text on it can have. */
export const LIGHTEST_BEHIND = CARD.rgb.map((c) => c * CARD.alpha + 255 * (1 - CARD.alpha));

function parse(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || '');
  if (!m) return null;
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** `hex` ("#rrggbb"), mixed towards white just enough to read at 4.5:1 on the card. */
export function legible(hex, ratio = 4.5) {
  const rgb = parse(hex) ?? [236, 228, 210];
  for (let k = 0; k <= 1.0001; k += 0.05) {
    const mixed = rgb.map((c) => c + (255 - c) * Math.min(k, 1));
    if (contrast(mixed, LIGHTEST_BEHIND) >= ratio) return toHex(mixed);
  }
  return '#ffffff';
}
