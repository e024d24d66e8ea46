// Building elements without markup strings: every piece of text becomes a
// text node, so a name or anything else a user typed is never read as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * An HTML element: `h('button', {class: 'primary', onClick: play}, 'Play')`.
 * `on...` props become listeners, `class` the class name, `aria-*`, `role`,
 * `for` and `data-*` attributes; other props are set as properties.
 * null, undefined and false props and children are left out.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') element.className = value;
    else if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key.startsWith('aria-') || key.startsWith('data-') || key === 'role' || key === 'for') {
      element.setAttribute(key, value === true ? 'true' : String(value));
    } else element[key] = value;
  }
  append(element, children);
  return element;
}

/** An SVG element with attributes (all set with setAttribute). */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

/** Replace an element's children (text or nodes). */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** Set a text if it changed (keeps screen readers from re-reading unchanged live text). */
export function setText(element, text) {
  const value = String(text ?? '');
  if (element.textContent !== value) element.textContent = value;
}

/** Show or hide an element. */
export function show(element, visible) {
  if (element.hidden === visible) element.hidden = !visible;
}
