// The odds of what is drafted, drawn: a bar per result (at most 60: a wide range by its likelier
// part), those that meet the target marked, and the server's words for the distribution.

/** The results drawn, at most 60: a wide range is shown by its likelier part. */
export function shownResults(dist) {
  if (!dist.length) return [];
  const top = Math.max(...dist.map((d) => d.p));
  return dist.length > 60 ? dist.filter((d) => d.p >= top / 200).slice(0, 60) : dist;
}

/** Each bar: its height in % of the likeliest, whether it meets the target, its title. */
export function bars(odds) {
  const dist = odds.distribution || [];
  const top = Math.max(...dist.map((d) => d.p));
  return shownResults(dist).map((d) => ({
    height: Math.max(2, (100 * d.p) / top),
    pass: odds.target !== undefined && d.value >= odds.target,
    title: `${d.shown ?? d.value}: ${(100 * d.p).toFixed(2)}%`,
  }));
}

/** The odds in words: the server's (the range, rare tails, the likeliest), and the success. */
export function oddsWords(odds) {
  let text = `${odds.title}: ${odds.summary}`;
  if (odds.p_success !== undefined) text += `; success ${(100 * odds.p_success).toFixed(1)}%`;
  return text;
}

/** Each outcome class (a system file's bands) in the rules' order with its chance, in words:
 * "strong hit 41.7% (5/12) · weak hit 41.7% (5/12) · miss 16.7% (1/6)"; empty where there are none. */
export function bandsWords(odds) {
  return (odds.bands || [])
    .map((b) => `${b.name} ${(100 * b.p).toFixed(1)}% (${b.exact})`)
    .join(' · ');
}

/**
 * A move's odds in words, led by the chance that matters: its chance of success, then the move
 * and its range, then each outcome the move can come to with its chance; a move with outcomes
 * and no success (a system file's bands alone) is led by its outcomes.
 */
export function moveOddsWords(odds) {
  const range = `${odds.title}: ${odds.summary}`;
  const bands = bandsWords({ bands: (odds.bands || []).filter((b) => b.p > 0) });
  if (odds.p_success !== undefined) {
    const chance = `Chance of success: ${(100 * odds.p_success).toFixed(1)}%`;
    return `${chance}. ${range}${bands ? `. Outcomes: ${bands}` : ''}`;
  }
  return bands ? `${bands}. ${range}` : range;
}

/** The colours of a move's outcomes in the rules' order (best first): from green through
 * amber to red, then blue and grey for more; each reads apart from its neighbours. */
export const BAND_COLOURS = ['#3fa05c', '#a4c64a', '#e3b93c', '#e47f3a', '#cf4a3f', '#9a62b5', '#4f86c6', '#8a8a8a'];

/** Each outcome the move can come to, as a share of a strip in its own colour, in the rules'
 * order: [{ name, percent, words, colour }]. Where the rules name broad outcomes before the
 * finer ones they are made of (step dice: success, failure, then critical, complete and
 * marginal), the strip is of the finer ones, which share the whole between them; none where
 * the outcomes never do. */
export function bandSegments(odds) {
  const all = odds.bands || [];
  const whole = (bs) => Math.abs(bs.reduce((t, b) => t + b.p, 0) - 1) < 1e-6;
  let first = 0;
  while (first < all.length && !whole(all.slice(first))) first += 1;
  return all.slice(first).map((b, i) => ({
    name: b.name,
    percent: 100 * b.p,
    words: `${b.name} ${(100 * b.p).toFixed(1)}% (${b.exact})`,
    colour: BAND_COLOURS[i % BAND_COLOURS.length],
  })).filter((b) => b.percent > 0);
}

/** Draws a move's outcomes into `strip` (one bar, a share each, in the outcome's colour) and
 * `legend` (each colour named, with its chance); both empty where there are none. */
export function drawBands(odds, strip, legend) {
  const segments = bandSegments(odds);
  strip.replaceChildren(...segments.map((b) => {
    const part = document.createElement('span');
    part.style.width = `${b.percent}%`;
    part.style.background = b.colour;
    part.title = b.words;
    return part;
  }));
  strip.hidden = !segments.length;
  strip.setAttribute('aria-label', `The chance of each outcome: ${segments.map((b) => b.words).join(', ')}`);
  legend.replaceChildren(...segments.map((b) => {
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = b.colour;
    li.append(swatch, b.words);
    return li;
  }));
  legend.hidden = !segments.length;
}

/** Draws `odds` into `chart` (a bar each) and says them in `words`. */
export function drawOdds(odds, chart, words, say = oddsWords) {
  chart.replaceChildren();
  const drawn = bars(odds);
  if (!drawn.length) return;
  for (const b of drawn) {
    const bar = document.createElement('span');
    bar.style.height = `${b.height}%`;
    if (b.pass) bar.className = 'pass';
    bar.title = b.title;
    chart.append(bar);
  }
  const text = say(odds);
  words.textContent = text;
  chart.setAttribute('aria-label', `The chance of each total: ${text}`);
}
