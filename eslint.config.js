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
    // Browser scripts served to visitors.
    files: ['public/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    // The pure core must never reach for an adapter or for I/O.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/store/**', '**/http/**', '**/cli/**', '**/live/**', '**/mcp/**', '**/websub/**', '**/config.js'], message: 'src/core is pure: it must not import adapters.' },
          { group: ['node:fs', 'node:fs/*', 'node:net', 'node:http', 'node:https', 'node:child_process', 'fastify', 'better-sqlite3', 'pg', 'undici'], message: 'src/core is pure: no I/O.' },
        ],
      }],
    },
  },
);
