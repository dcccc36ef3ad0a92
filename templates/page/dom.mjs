/* The page's one DOM helper: elements built from a tag, attributes and children. */
export const doc = document;
export function el(tag, attrs, ...kids) {
  const e = doc.createElement(tag);
  for (const k in attrs || {}) {
    if (k === 'class') e.className = attrs[k];
    else if (k === 'text') e.textContent = attrs[k];
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
    else e.setAttribute(k, attrs[k]);
  }
  for (const c of kids) if (c != null) e.append(c);
  return e;
}
// A band's swatch: its colour, hatched as the chart draws it (a line
// sample, dashed when hatched, while the chart draws lines: page.css .kline).
export function swatch(b) {
  return el('span', { class: 'sw' + (b && b.hatched ? ' hatched' : ''),
    style: 'background-color:' + (b ? b.colour : '#ccc') + ';color:' + (b ? b.colour : '#ccc') });
}
export function option(v, label, cur) { const o = el('option', { value: v, text: label }); if (v === cur) o.selected = true; return o; }
