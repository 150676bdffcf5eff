// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { FLOORS, UNCHECKED } from './direction.config.js';

/** An import into another floor: into a core area only through its index.ts (its public surface). */
const floorTarget = (name, from) => {
  const floor = FLOORS.find((f) => f.name === name);
  if (!floor) throw new Error(`direction.config.js: no floor named ${name}`);
  return floor.entry && name !== from
    ? { file: { categories: name, path: floor.entry } }
    : { file: { categories: name } };
};

/** The floors of direction.config.js as eslint-plugin-boundaries' policy: every import in src/ checked. */
const direction = {
  files: ['src/**/*.{ts,tsx}'],
  ignores: UNCHECKED,
  plugins: { boundaries },
  settings: {
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    'boundaries/files': FLOORS.map((f) => ({ category: f.name, pattern: f.files })),
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        // an import of a file no floor names (a new folder, a test helper) is an error too
        checkUnknownLocals: true,
        policies: FLOORS.map((f) => ({
          from: { file: { categories: f.name } },
          allow: { to: [f.name, ...(f.may ?? [])].map((name) => floorTarget(name, f.name)) },
        })),
      },
    ],
  },
};

const noElectron = {
  paths: [
    {
      name: 'electron',
      message:
        'Services, shared code and the renderer never import electron: take it through a constructor (see ARCHITECTURE.md).',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      '.tmp/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    rules: {
      // a switch over a union lists every case or ends in `default: return missingCaseError(x)`
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      // our interfaces are promise-returning (secret storage, dialogs, fetch pages): fakes and adapters that
      // answer at once are `async` without an await, which is what this rule would flag
      '@typescript-eslint/require-await': 'off',
      // interface members are properties (`f: () => void`), so a dependency can be passed on without binding it
      // (unbound-method) and parameters are checked strictly, not bivariantly
      '@typescript-eslint/method-signature-style': ['error', 'property'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        { selector: "Identifier[name='ipcMain']", message: 'Use the handle() wrapper in src/shells/electron/ipc.ts.' },
        { selector: "Identifier[name='ipcRenderer']", message: 'Only the preload talks to ipcRenderer.' },
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Render untrusted text as text, never HTML.',
        },
      ],
    },
  },
  {
    // plain Node scripts: the start script and the shell smoke test's fake Electron
    files: ['scripts/**/*.mjs', 'e2e/electron-smoke/**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'Buffer',
          'URL',
          'Request',
          'Response',
          'Headers',
          'fetch',
          'setTimeout',
          'clearTimeout',
          'setImmediate',
          'structuredClone',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    files: ['src/shells/electron/ipc.ts', 'src/preload/**', 'e2e/electron-smoke/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['src/shared/**', 'src/core/**', 'src/sandbox/**', 'src/shells/web/**', 'src/renderer/**'],
    rules: { 'no-restricted-imports': ['error', noElectron] },
  },
  direction,
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // vitest's asymmetric matchers (expect.any, expect.stringContaining…) are typed `any`
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  // plain JavaScript (build scripts, this file) is linted without type information
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
);
