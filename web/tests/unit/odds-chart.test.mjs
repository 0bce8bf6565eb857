// odds-chart.js, the drafted roll's odds as bars and words. Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BAND_COLOURS, bandSegments, bandsWords, bars, moveOddsWords, oddsWords, shownResults } from '../../odds-chart.js';

const twoD6 = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((value) => ({
  value,
  p: (6 - Math.abs(7 - value)) / 36,
}));

test('a bar per result, scaled to the likeliest, the target met marked', () => {
  const drawn = bars({ distribution: twoD6, target: 10 });
  assert.equal(drawn.length, 11);
  assert.ok(Math.abs(drawn[5].height - 100) < 1e-9);
  assert.ok(Math.abs(drawn[0].height - 100 / 6) < 1e-9);
  assert.deepEqual(drawn.map((b) => b.pass), [...Array(8).fill(false), true, true, true]);
  assert.equal(drawn[0].title, '2: 2.78%');
  // A fraction is shown as the server writes it.
  assert.equal(bars({ distribution: [{ value: 1.5, shown: '3/2', p: 1 }] })[0].title, '3/2: 100.00%');
});

test('a wide range is drawn by its likelier part, at most 60 bars', () => {
  const wide = Array.from({ length: 400 }, (_, i) => ({ value: i, p: i === 200 ? 0.5 : 0.5 / 399 }));
  const shown = shownResults(wide);
  assert.ok(shown.length <= 60 && shown.length > 0);
  assert.equal(shownResults([]).length, 0);
  // Never a bar too thin to see.
  const faint = bars({ distribution: [{ value: 1, p: 1 }, { value: 2, p: 1e-9 }] });
  assert.equal(faint[1].height, 2);
});

test('the odds in words, with the success where there is a target', () => {
  assert.equal(oddsWords({ title: '2d6', summary: '2 to 12, average 7' }), '2d6: 2 to 12, average 7');
  assert.equal(
    oddsWords({ title: '2d6>=10', summary: '2 to 12', p_success: 1 / 6 }),
    '2d6>=10: 2 to 12; success 16.7%',
  );
});

test("a move's odds led by the chance that matters", () => {
  assert.equal(
    moveOddsWords({ title: 'Bo: Locks vs Hard', summary: '0 to 6, average 2.50', p_success: 0.5833 }),
    'Chance of success: 58.3%. Bo: Locks vs Hard: 0 to 6, average 2.50',
  );
  // The outcomes follow, those that cannot happen left out.
  assert.equal(
    moveOddsWords({
      title: 'Pim: attack', summary: '6 to 24', p_success: 919 / 1024,
      bands: [
        { name: 'success', p: 919 / 1024, exact: '919/1024' },
        { name: 'critical failure', p: 0, exact: '0' },
        { name: 'failure', p: 105 / 1024, exact: '105/1024' },
      ],
    }),
    'Chance of success: 89.7%. Pim: attack: 6 to 24. Outcomes: success 89.7% (919/1024) · failure 10.3% (105/1024)',
  );
  assert.equal(
    moveOddsWords({
      title: 'Lind: Wits', summary: '0 to 4, average 0.67',
      bands: [{ name: 'strong hit', p: 0.5, exact: '1/2' }, { name: 'miss', p: 0.5, exact: '1/2' }],
    }),
    'strong hit 50.0% (1/2) · miss 50.0% (1/2). Lind: Wits: 0 to 4, average 0.67',
  );
  assert.equal(moveOddsWords({ title: '2d6', summary: '2 to 12' }), '2d6: 2 to 12');
});

test('every band of a move with its exact chance, in the rules\' order', () => {
  const odds = {
    bands: [
      { name: 'strong hit', p: 15 / 36, exact: '5/12' },
      { name: 'weak hit', p: 15 / 36, exact: '5/12' },
      { name: 'miss', p: 6 / 36, exact: '1/6' },
    ],
  };
  assert.equal(bandsWords(odds), 'strong hit 41.7% (5/12) · weak hit 41.7% (5/12) · miss 16.7% (1/6)');
  assert.equal(bandsWords({}), '');
});

test("a move's outcomes as shares of a strip, each in its own colour, in the rules' order", () => {
  const segments = bandSegments({
    bands: [
      { name: 'strong hit', p: 15 / 36, exact: '5/12' },
      { name: 'never', p: 0, exact: '0' },
      { name: 'weak hit', p: 15 / 36, exact: '5/12' },
      { name: 'miss', p: 6 / 36, exact: '1/6' },
    ],
  });
  assert.deepEqual(segments.map((b) => b.words), ['strong hit 41.7% (5/12)', 'weak hit 41.7% (5/12)', 'miss 16.7% (1/6)']);
  assert.deepEqual(segments.map((b) => b.colour), [BAND_COLOURS[0], BAND_COLOURS[2], BAND_COLOURS[3]]);
  assert.equal(new Set(BAND_COLOURS).size, BAND_COLOURS.length);
  assert.ok(Math.abs(segments.reduce((t, b) => t + b.percent, 0) - 100) < 1e-9);
  assert.deepEqual(bandSegments({}), []);
  // Step dice name success and failure, then the finer outcomes they are made of: the strip
  // shares the whole between the finer ones.
  const step = bandSegments({
    bands: [
      { name: 'success', p: 11 / 16, exact: '11/16' },
      { name: 'failure', p: 5 / 16, exact: '5/16' },
      { name: 'critical success', p: 1 / 16, exact: '1/16' },
      { name: 'complete success', p: 4 / 16, exact: '1/4' },
      { name: 'marginal success', p: 6 / 16, exact: '3/8' },
      { name: 'critical failure', p: 0, exact: '0' },
      { name: 'complete failure', p: 2 / 16, exact: '1/8' },
      { name: 'marginal failure', p: 3 / 16, exact: '3/16' },
    ],
  });
  assert.deepEqual(step.map((b) => b.name),
    ['critical success', 'complete success', 'marginal success', 'complete failure', 'marginal failure']);
  assert.ok(Math.abs(step.reduce((t, b) => t + b.percent, 0) - 100) < 1e-9);
  // Outcomes that never share the whole: no strip.
  assert.deepEqual(bandSegments({ bands: [{ name: 'a', p: 0.5, exact: '1/2' }] }), []);
});
