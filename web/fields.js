// The fields of a drafted move as the page draws them: the rules send each field (its path in
// the move's JSON, its label, how it is edited, its choices); the page renders a control for
// it and puts each value chosen at the field's path. Nothing here knows a ruleset's moves.

/** Puts `value` at `path` in a move's JSON (a number is a place in a list). */
export function setPath(json, path, value) {
  let at = json;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = {};
    at = at[key];
  }
  at[path[path.length - 1]] = value;
}

/** What tells one field from another when the form is drawn again (its path and label). */
export const fieldKey = (f) => `${f.path.join('/')}|${f.label}`;

/** A tally's value: each option's value as many times as it is counted. */
export function tallyValue(options, counts) {
  return options.flatMap((o, k) => Array(counts[k]).fill(o.value));
}

/**
 * The control of field `f` (the `i`th of the form): a labelled select, number, checkbox, tally
 * or list of words, or the field's text; `changed(f, value)` is called with each value chosen.
 */
export function fieldControl(f, i, changed) {
  const id = `move-field-${i}`;
  const wrap = document.createElement('div');
  wrap.dataset.key = fieldKey(f);
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = f.label;
  switch (f.input) {
    case 'choice': {
      const select = document.createElement('select');
      select.id = id;
      if (f.selected === null || f.selected === undefined) {
        select.append(new Option('(choose)', '', true, true));
      }
      f.options.forEach((o, k) => select.append(new Option(o.label, String(k), false, k === f.selected)));
      select.addEventListener('change', () => {
        const o = f.options[Number(select.value)];
        if (o) changed(f, o.value);
      });
      wrap.append(label, select);
      break;
    }
    case 'number': {
      const input = document.createElement('input');
      input.type = 'number';
      input.id = id;
      input.min = String(f.min);
      input.max = String(f.max);
      input.step = '1';
      input.value = f.value === null || f.value === undefined ? '' : String(f.value);
      input.addEventListener('change', () => {
        const text = input.value.trim();
        if (text === '' && f.optional) changed(f, null);
        else if (/^-?\d+$/.test(text)) changed(f, Number(text));
      });
      wrap.append(label, input);
      break;
    }
    case 'flag': {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = id;
      box.checked = f.value;
      box.addEventListener('change', () => changed(f, box.checked));
      label.prepend(box, ' ');
      label.style.fontWeight = 'normal';
      wrap.append(label);
      break;
    }
    case 'tally': {
      const set = document.createElement('fieldset');
      set.className = 'tally';
      const legend = document.createElement('legend');
      legend.textContent = f.label;
      set.append(legend);
      const counts = [...f.counts];
      const value = () => tallyValue(f.options, counts);
      f.options.forEach((o, k) => {
        const l = document.createElement('label');
        const input = document.createElement('input');
        input.id = `${id}-${k}`;
        if (f.max === 1) {
          input.type = 'checkbox';
          input.checked = counts[k] > 0;
          input.addEventListener('change', () => { counts[k] = input.checked ? 1 : 0; changed(f, value()); });
          l.append(input, ` ${o.label}`);
        } else {
          input.type = 'number';
          input.min = '0';
          input.max = String(f.max);
          input.value = String(counts[k]);
          input.addEventListener('change', () => {
            const n = Number(input.value);
            if (Number.isInteger(n) && n >= 0 && n <= f.max) { counts[k] = n; changed(f, value()); }
          });
          l.append(`${o.label} `, input);
        }
        set.append(l);
      });
      wrap.append(set);
      break;
    }
    case 'words': {
      const input = document.createElement('input');
      input.id = id;
      input.value = f.value.join(', ');
      input.placeholder = f.hint;
      input.addEventListener('change', () => {
        changed(f, input.value.split(',').map((w) => w.trim()).filter(Boolean));
      });
      wrap.append(label, input);
      break;
    }
    default: {
      const p = document.createElement('p');
      p.className = 'help';
      p.textContent = f.text;
      wrap.append(p);
    }
  }
  return wrap;
}
