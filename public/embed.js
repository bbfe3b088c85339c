// The /embed page's size, told to the page that frames it, so the host can fit the iframe to the widget.
const report = () => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height !== report.last && window.parent !== window) {
    report.last = height;
    // Only a height is sent, so any host may read it.
    window.parent.postMessage({ type: 'reviewcast:resize', height }, '*');
  }
};
// At once (the widget, a module loaded before this one, already holds its height), then on every change; a frame
// scrolled out of view may not be laid out again until it is seen, so the first report must not wait for the observer.
report();
new ResizeObserver(report).observe(document.documentElement);
