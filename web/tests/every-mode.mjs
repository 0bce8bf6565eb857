// A phone's free roll in each mode at a room already open, run by tests/dicetable/secrets.rs:
//   node web/tests/every-mode.mjs ROOM_LINK OUT_DIR
// In headless chromium, one phone (375 x 667) found by role and accessible name: Ria joins the
// room as Bea's player and throws a free roll of 1d20 in each mode of "Who sees it", each labelled
// "zq-phone-MODE"; what the server logged for each (its entry), axe-core on the page after the
// last. Prints one JSON line.
import { launch, axe } from './browser.mjs';
import { joinAs, freeRoll, answered, waitAnswer, trayGreeted, phonePage } from './room-page.mjs';

const [link] = process.argv.slice(2);
const context = await launch();
const errors = [];
const MODES = [
  { mode: 'public', option: 'Everyone, at once' },
  { mode: 'gamemaster', option: 'You and the game master' },
  { mode: 'blind', option: 'The game master alone (blind: not you)' },
  { mode: 'self', option: 'You alone' },
];

try {
  const ria = await phonePage(context, errors, 'Ria');
  await joinAs(ria, link, { name: 'Ria', passcode: 'friends', seats: ['Bea'] });
  await trayGreeted(ria);
  await freeRoll(ria);
  const rolls = [];
  for (const m of MODES) {
    await ria.getByRole('combobox', { name: 'Who sees it' }).selectOption({ label: m.option });
    await ria.getByRole('textbox', { name: 'Notation' }).fill('1d20');
    await ria.getByRole('textbox', { name: 'Label' }).fill(`zq-phone-${m.mode}`);
    const before = await answered(ria);
    await ria.getByRole('button', { name: 'Throw', exact: true }).click();
    await waitAnswer(ria, before);
    const refused = await ria.evaluate(() => window.seat.refused);
    rolls.push({ mode: m.mode, seq: await ria.evaluate(() => window.seat.acked), refused });
  }
  const violations = await axe(ria);
  await context.close();
  console.log(JSON.stringify({ rolls, violations, errors }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
