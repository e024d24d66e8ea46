// What test_browser_every_page.py measures in a page, run in the page itself (each function
// answers plain values: lists of what falls short, or a yes or no).

/** The elements that reach past the window's sides (outside a box that scrolls), described. */
function overflowing() {
  const width = document.documentElement.clientWidth;
  const found = [];
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > width) found.push(`the page is ${pageWidth} px wide`);
  const scrolls = (element) => {
    for (let above = element.parentElement; above; above = above.parentElement) {
      if (getComputedStyle(above).overflowX !== 'visible') return true;
    }
    return false;
  };
  for (const element of document.querySelectorAll('body *')) {
    if (!element.checkVisibility() || scrolls(element)) continue;
    const box = element.getBoundingClientRect();
    if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)) {
      found.push(`${describe(element)} spans ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return found.slice(0, 12);
}

/** The controls shown (the board's points aside) smaller than `least` px either way, described. */
function smallControls(least) {
  const found = [];
  for (const control of document.querySelectorAll('a[href], button, input, select, textarea, summary')) {
    if (!control.checkVisibility() || control.classList.contains('point') || control.type === 'hidden') continue;
    const box = targetOf(control);
    if (box.width < least - 0.5 || box.height < least - 0.5) {
      found.push(`${describe(control)} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return found;
}

/** Where a finger hits a control: a box or a radio is hit through its labels too. */
function targetOf(control) {
  let box = control.getBoundingClientRect();
  if (control.type !== 'checkbox' && control.type !== 'radio') return box;
  for (const label of control.labels) {
    const other = label.getBoundingClientRect();
    const left = Math.min(box.left, other.left);
    const top = Math.min(box.top, other.top);
    box = { left, top, right: Math.max(box.right, other.right), bottom: Math.max(box.bottom, other.bottom),
      width: Math.max(box.right, other.right) - left, height: Math.max(box.bottom, other.bottom) - top };
  }
  return box;
}

/** Whether everything in the top bar (its drop-down menu aside) shares one row. */
function menuOnOneRow() {
  const boxes = [...document.querySelectorAll('header.top > :not(.settings), header.top nav > *, header.top .tools > *')]
    .filter((element) => element.checkVisibility() && !element.classList.contains('visually-hidden'))
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0);
  return Math.max(...boxes.map((box) => box.top)) < Math.min(...boxes.map((box) => box.bottom));
}

/** Every text a reader meets: shown text, a shown select's options, accessible names, placeholders
 * and titles; text marked with a language of its own (`lang`) is left out. */
function textsShown() {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest('noscript, script, style, body [lang]')) continue;
    if (!(parent.closest('select') ?? parent).checkVisibility()) continue;
    if (node.textContent.trim()) texts.push(node.textContent.trim());
  }
  for (const element of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (!element.checkVisibility() || element.closest('body [lang]')) continue;
    for (const name of ['aria-label', 'placeholder', 'title']) {
      if (element.getAttribute(name)) texts.push(element.getAttribute(name));
    }
  }
  return texts;
}

function describe(element) {
  const text = (element.textContent || element.getAttribute('aria-label') || element.name || '').trim();
  return `${element.tagName.toLowerCase()}.${element.className} "${text.slice(0, 30)}"`;
}
