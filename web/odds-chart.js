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
