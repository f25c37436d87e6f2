// What a person cannot use on the screen as drawn now, in words, one per problem:
// the page scrolls sideways, a control is cut off (outside the window's width, or
// clipped by a box that does not scroll), or two controls overlap. Only controls a
// person can reach count: shown, and not covered by something else (a dialog's
// backdrop covers the page behind it).
const problems = [];
const root = document.documentElement;
// Every box that scrolls, and where: put back as found when the check is done.
const scrollers = [root, ...document.querySelectorAll('*')]
  .filter((e) => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth)
  .map((e) => [e, e.scrollTop, e.scrollLeft]);
if (root.scrollWidth > root.clientWidth + 1) {
  // The innermost boxes that reach past the edge: where to look.
  const past = [...document.querySelectorAll('body *')].filter(
    (e) => e.getBoundingClientRect().right > root.clientWidth + 1 && ![...e.children].some((c) => c.getBoundingClientRect().right > root.clientWidth + 1),
  );
  const where = past.slice(0, 3).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${typeof e.className === 'string' ? e.className.split(' ')[0] : ''} (${Math.round(e.getBoundingClientRect().width)} px)`);
  problems.push(`the page scrolls sideways (${root.scrollWidth} px in ${root.clientWidth}): ${where.join(', ')}`);
}
const name = (el) =>
  el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/)[0] : ''} "${(el.textContent || '').trim().slice(0, 20)}"`;
const shown = [...document.querySelectorAll('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])')].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.width >= 1 && r.height >= 1 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[inert], [hidden]');
});
// Where each is before anything scrolls: two controls overlap or not whatever is scrolled.
const atRest = new Map(
  shown.map((el) => {
    const r = el.getBoundingClientRect();
    return [el, { left: r.left, right: r.right, top: r.top, bottom: r.bottom }];
  }),
);
const controls = shown.filter((el) => {
    // Reachable: scrolled into view, the control is what a finger at its middle meets.
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const m = el.getBoundingClientRect();
    const top = document.elementFromPoint(m.left + m.width / 2, m.top + m.height / 2);
    return top !== null && (top === el || el.contains(top) || top.closest('label')?.contains(el));
  });
for (const el of controls) {
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = el.getBoundingClientRect();
  if (r.left < -1 || r.right > window.innerWidth + 1) {
    problems.push(`${name(el)} is cut off at the window's edge (${Math.round(r.left)}…${Math.round(r.right)} of ${window.innerWidth})`);
    continue;
  }
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    const s = getComputedStyle(box);
    const clipsX = s.overflowX === 'hidden' || s.overflowX === 'clip';
    const clipsY = s.overflowY === 'hidden' || s.overflowY === 'clip';
    if (!clipsX && !clipsY) continue;
    const b = box.getBoundingClientRect();
    if ((clipsX && (r.left < b.left - 1 || r.right > b.right + 1)) || (clipsY && (r.top < b.top - 1 || r.bottom > b.bottom + 1))) {
      problems.push(`${name(el)} is cut off by ${name(box)}`);
      break;
    }
  }
}
const rects = controls.map((el) => ({ el, ...atRest.get(el) }));
for (let i = 0; i < rects.length; i++) {
  for (let j = i + 1; j < rects.length; j++) {
    const a = rects[i];
    const b = rects[j];
    if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 2 && h > 2) problems.push(`${name(a.el)} and ${name(b.el)} overlap`);
  }
}
for (const [e, top, left] of scrollers) {
  e.scrollTop = top;
  e.scrollLeft = left;
}
return problems;
