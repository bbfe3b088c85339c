import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Tool configuration in CommonJS (.dependency-cruiser.cjs).
    files: ['**/*.cjs'],
    languageOptions: { globals: globals.node, sourceType: 'commonjs' },
  },
  {
    // Node scripts in plain JavaScript (a bench half that runs without tsx).
    files: ['bench/**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Browser scripts served to visitors.
    files: ['public/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    // The review widget and the /embed page's script are module scripts (import.meta.url names the widget's origin).
    files: ['public/widget.js', 'public/embed.js'],
    languageOptions: { sourceType: 'module' },
  },
);
