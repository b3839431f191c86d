// A list's scrolling box ends on a row's edge, never mid-row: it is cut to the last row that fits
// under the CSS cap (24rem, console.css), measured again whenever rows change or the window is
// resized. Rows are measured in the content (scrollTop added back), so a user's scroll position
// is kept.
const SCROLL_CAP_REM = 24;

function fitScrollBoxes(): void {
  const cap = SCROLL_CAP_REM * parseFloat(getComputedStyle(document.documentElement).fontSize);
  for (const box of document.querySelectorAll<HTMLElement>('.scroll')) {
    if (box.offsetParent === null || box.scrollHeight <= cap) {
      box.style.maxHeight = '';
      continue;
    }
    const top = box.getBoundingClientRect().top + box.clientTop - box.scrollTop;
    let fits = 0;
    for (const row of box.querySelectorAll('tbody tr')) {
      const bottom = row.getBoundingClientRect().bottom - top;
      if (bottom > cap) break;
      fits = bottom;
    }
    box.style.maxHeight = `${fits}px`;
  }
}

/** Fits the boxes under `root` a frame after each change of its rows, and on each resize. */
export function keepScrollBoxesFitted(root: HTMLElement): void {
  let frame = 0;
  const fitSoon = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(fitScrollBoxes);
  };
  new MutationObserver(fitSoon).observe(root, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['hidden'],
  });
  addEventListener('resize', fitSoon);
}
