// The widget builder on /developers/widget: the form sets the preview's attributes and writes the snippets.
(function () {
  'use strict';
  var form = document.getElementById('widget-form');
  var preview = document.querySelector('#widget-preview reviewcast-reviews');
  var script = document.getElementById('snippet-script');
  var iframe = document.getElementById('snippet-iframe');
  if (!form || !preview || !script || !iframe) return;
  var base = location.origin;
  var defaults = {};
  Array.prototype.forEach.call(form.elements, function (el) {
    if (el.name) defaults[el.name] = el.defaultValue !== undefined && el.tagName === 'INPUT' ? el.defaultValue : el.querySelector('option[selected]') ? el.querySelector('option[selected]').value : '';
  });
  // The height the widget holds for these options, plus the embed page's padding: the iframe is as tall as the widget.
  function height() {
    return typeof preview.reservedHeight === 'number' ? preview.reservedHeight + 2 : 400;
  }
  function escape(s) {
    return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  }
  function update() {
    var attrs = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      var v = el.value.trim();
      if (v === '' || v === defaults[el.name]) preview.removeAttribute(el.name);
      else {
        preview.setAttribute(el.name, v);
        attrs.push([el.name, v]);
      }
    });
    var query = attrs.map(function (a) { return encodeURIComponent(a[0]) + '=' + encodeURIComponent(a[1]); }).join('&');
    script.textContent = '<script type="module" src="' + base + '/widget.js"></' + 'script>\n<reviewcast-reviews' + attrs.map(function (a) { return ' ' + a[0] + '="' + escape(a[1]) + '"'; }).join('') + '></reviewcast-reviews>';
    iframe.textContent = iframe.textContent.replace(/src="[^"]*"/, 'src="' + base + '/embed' + (query ? '?' + escape(query) : '') + '"').replace(/height="\d+"/, 'height="' + height() + '"');
  }
  form.addEventListener('input', update);
  form.addEventListener('change', update);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  document.querySelectorAll('[data-copy]').forEach(function (button) {
    button.addEventListener('click', function () {
      var status = document.getElementById('copy-status');
      navigator.clipboard.writeText(document.getElementById(button.getAttribute('data-copy')).textContent).then(
        function () { status.textContent = 'Copied.'; },
        function () { status.textContent = 'Copying is not allowed here; select the text and copy it.'; },
      );
    });
  });
  customElements.whenDefined('reviewcast-reviews').then(update);
  update();
})();
