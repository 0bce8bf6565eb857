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

/**
 * A roll's total as the player reads it: a number as it is; a fraction kept exact by the record
 * ("11/2", where a notation leaves a division unrounded) as its decimal when that ends within six
 * places (5.5), else as the fraction (10/3), as the window and the command line write it.
 */
export function totalText(total) {
  if (total === null || total === undefined) return '';
  if (typeof total !== 'string' || !total.includes('/')) return String(total);
  const [top, bottom] = total.split('/').map(Number);
  const decimal = String(top / bottom);
  return /^-?\d+(\.\d{1,6})?$/.test(decimal) ? decimal : total;
}
