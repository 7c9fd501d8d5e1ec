import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "ImportDeclaration[source.value=/^@saccade\\/(runner|tui)$/]", message: 'Packages never import apps.' },
      ],
    },
  },
  // Apps compose: the runner shows the TUI, the TUI's examples import it by name.
  { files: ['apps/**'], rules: { 'no-restricted-syntax': 'off' } },
);
