// @ts-check
/**
 * Lint: typescript-eslint's strict, type-aware rules over Worker and Node code alike (CI: 0 warnings).
 * Each file is checked with the tsconfig that owns it (tsconfig.json: Worker, tsconfig.node.json: Node,
 * tsconfig.web.json: the browser viewer in src/web/app, DOM globals).
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.wrangler/',
      'coverage/',
      'worker-configuration.d.ts',
      'bench/peers/',
      'eslint.config.js',
      // Generated from the OTLP protos by `npm run otlp:proto`.
      'src/traces/otlp-proto/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.web.json', './tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Numbers in messages are the common, harmless case.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Tests assert on values they just checked exist; `!` there reads better than a guard per line.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
