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
  var titles = JSON.parse(iframe.getAttribute('data-titles'));
  function update() {
    var attrs = [];
    // What the widget would refuse, said as it says it (the schema's message, from data-message): no snippet is offered with it.
    var problems = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      // A number written as the widget and the server read it (decimal text): "1e1", which both refuse, is written 10.
      var v = el.type === 'number' && el.value !== '' && !isNaN(el.valueAsNumber) ? String(el.valueAsNumber) : el.value.trim();
      if (v !== '' && !el.validity.valid) problems.push(el.name + ': ' + el.getAttribute('data-message') + ' (got "' + v + '")');
      if (v === '' || v === defaults[el.name]) preview.removeAttribute(el.name);
      else {
        preview.setAttribute(el.name, v);
        attrs.push([el.name, v]);
      }
    });
    var query = attrs.map(function (a) { return encodeURIComponent(a[0]) + '=' + encodeURIComponent(a[1]); }).join('&');
    script.textContent = '<script type="module" src="' + base + '/widget.js"></' + 'script>\n<reviewcast-reviews' + attrs.map(function (a) { return ' ' + a[0] + '="' + escape(a[1]) + '"'; }).join('') + '></reviewcast-reviews>';
    iframe.textContent = iframe.textContent
      .replace(/src="[^"]*"/, 'src="' + base + '/embed' + (query ? '?' + escape(query) : '') + '"')
      .replace(/title="[^"]*"/, 'title="' + titles[form.elements.lang.value] + '"')
      .replace(/height="\d+"/, 'height="' + height() + '"');
    document.querySelectorAll('[data-copy]').forEach(function (button) {
      button.disabled = problems.length > 0;
      document.getElementById(button.getAttribute('aria-describedby')).textContent = problems.length ? 'The widget would refuse this snippet. ' + problems.join('; ') : '';
    });
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
