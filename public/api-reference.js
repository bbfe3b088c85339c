// Starts Scalar's API reference with the settings the page carries, so the page needs no inline script (CSP).
const config = JSON.parse(document.getElementById('api-docs-config').textContent);
// eslint-disable-next-line no-undef -- Scalar is the global the standalone bundle defines.
Scalar.createApiReference('#api-docs', config);
