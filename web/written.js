// A free roll written out, as the overlay and the room's page show it: served by both servers
// with the overlay (src/net/pages.rs).

/**
 * A free roll written out by the server (`(~2~5!+3) = 10`) as nodes for a page: the faces
 * a reroll replaced, between tildes, struck through (and named so for screen readers).
 */
export function writtenOut(text) {
  const out = document.createDocumentFragment();
  text.split(/~([^~]*)~/).forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) out.append(document.createTextNode(part));
      return;
    }
    const struck = document.createElement('s');
    struck.textContent = part;
    struck.title = 'rerolled';
    struck.setAttribute('aria-label', `${part} rerolled`);
    out.append(struck);
  });
  return out;
}
