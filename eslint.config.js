// The lint: typescript-eslint's type-aware rules over every TypeScript file (the ones that catch
// real bugs: promises left floating, values of type any spreading, a switch missing a case,
// code nothing uses); plain JavaScript (the docs page's script, the test hooks) without types.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.test-build/', 'data/', 'coverage/'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // vitest.config.ts is read by vitest alone, outside tsconfig.json's folders
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // style, not a bug: an async function that awaits nothing still turns a throw into a rejection and meets an interface that returns a promise
      '@typescript-eslint/require-await': 'off',
      // as only-throw-error allows by default: a rejection may pass on what a catch caught, of type unknown
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    files: ['generator/**/*.ts'],
    rules: {
      // the planner counts a link's name as read only where the link stands (resources/context.ts `Read`): a name wanted for more comes from the record
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='name'] > CallExpression.object[callee.property.name=/^(ref|refOrNull)$/]",
          message: "A link's name is read as the link only; read the record's name with ctx.get(kind, id).name.",
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    // vitest types its asymmetric matchers (expect.any, expect.stringMatching…) as any, and a test
    // hands them around by design; the other unsafe-any rules (member access, calls, arguments,
    // returns) still hold in tests
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [js.configs.recommended],
    // as for TypeScript: the docs page's script keeps to ES5, where a catch must name its error
    rules: { 'no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  { files: ['site/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['**/*.mjs'], languageOptions: { globals: globals.node } },
);
