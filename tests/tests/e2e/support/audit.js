// What WCAG asks of a screen that a script can measure, run in the app's window:
// every control a finger can hit is at least 44×44 CSS px (a checkbox or radio button
// counts with its label), and all visible text reaches AA contrast on what is behind
// it (4.5:1, or 3:1 for large text; the contrast asked as `arguments[0]`, `{ normal,
// large }`, when given: 7 and 4.5 are WCAG's enhanced contrast). Disabled controls are
// exempt, as WCAG says. Answers the violations, one line each.
const problems = [];
const asked = arguments[0] || { normal: 4.5, large: 3 };

function rgba(text) {
  const m = text.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const [r, g, b, a] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
  return { r, g, b, a: a === undefined || Number.isNaN(a) ? 1 : a };
}

function over(top, under) {
  const a = top.a + under.a * (1 - top.a);
  const mix = (t, u) => (t * top.a + u * under.a * (1 - top.a)) / (a || 1);
  return { r: mix(top.r, under.r), g: mix(top.g, under.g), b: mix(top.b, under.b), a };
}

function background(element) {
  const layers = [];
  for (let at = element; at; at = at.parentElement) {
    const bg = rgba(getComputedStyle(at).backgroundColor);
    if (bg && bg.a > 0) {
      layers.push(bg);
      if (bg.a >= 1) break;
    }
  }
  let result = { r: 255, g: 255, b: 255, a: 1 };
  for (const layer of layers.reverse()) result = over(layer, result);
  return result;
}

function luminance({ r, g, b }) {
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function ratio(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

function visible(element) {
  const style = getComputedStyle(element);
  const box = element.getBoundingClientRect();
  return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 1 && box.height > 1;
}

function disabled(element) {
  return element.closest(':disabled, [aria-disabled="true"]') !== null;
}

function name(element) {
  const id = element.id ? `#${element.id}` : '';
  const text = (element.textContent || element.getAttribute('aria-label') || '').trim().slice(0, 30);
  return `${element.tagName.toLowerCase()}${id} "${text}"`;
}

for (const control of document.querySelectorAll('button, input, select, textarea, summary, a[href], [role="button"]')) {
  if (!visible(control) && !(control.type === 'checkbox' || control.type === 'radio')) continue;
  const target =
    (control.type === 'checkbox' || control.type === 'radio') && control.closest('label')
      ? control.closest('label')
      : control;
  if (!visible(target)) continue;
  const box = target.getBoundingClientRect();
  if (box.width < 43.5 || box.height < 43.5) {
    problems.push(`target ${name(target)} is ${box.width.toFixed(0)}×${box.height.toFixed(0)} px`);
  }
}

const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const seen = new Set();
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const element = node.parentElement;
  if (!element || seen.has(element) || !node.textContent.trim()) continue;
  seen.add(element);
  if (!visible(element) || disabled(element)) continue;
  // Text hidden from screen readers is still seen (a key's ⌫ or ⇧): measured too.
  if (element.closest('.visually-hidden')) continue;
  const style = getComputedStyle(element);
  const fg = rgba(style.color);
  if (!fg) continue;
  const bg = background(element);
  const size = parseFloat(style.fontSize);
  const bold = Number(style.fontWeight) >= 700;
  const large = size >= 24 || (bold && size >= 18.66);
  const needed = large ? asked.large : asked.normal;
  const got = ratio(over(fg, bg), bg);
  if (got < needed) {
    problems.push(`text ${name(element)} has contrast ${got.toFixed(2)}:1, needs ${needed}:1`);
  }
}

return problems;
