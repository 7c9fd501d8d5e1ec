// @ts-check
// The one template of a workspace package: the files every package starts with. Both the scaffolder
// (tools/scripts/new-package.mjs, any package) and the nx generators (`nx g @saccade/plugin:tool`)
// write them, so a change here changes both. Plain JavaScript, no dependency: the scaffolder runs
// before anything is installed.

/**
 * @typedef {object} PackageTemplate
 * @property {string} folder Where the package goes, relative to the workspace root (e.g. `packages/tools/zoom`).
 * @property {string} name The package name, in the `@saccade` scope.
 * @property {string} [description]
 * @property {Record<string, string>} [dependencies]
 * @property {string[]} [files] What `pnpm pack` ships (default: dist and README.md).
 * @property {Record<string, unknown>} [extra] More package.json fields, written last (e.g. `saccade`).
 */

/**
 * `folder` with forward slashes and no leading `./` or trailing `/`; refuses paths that leave the workspace.
 * @param {string} folder
 * @returns {string}
 */
export function normalizeFolder(folder) {
  const normal = folder.replaceAll('\\', '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (normal === '' || normal.startsWith('/') || normal.split('/').some((part) => part === '..' || part === '' || part === '.')) {
    throw new Error(`expected a folder inside the workspace such as packages/tools/zoom, received ${JSON.stringify(folder)}`);
  }
  return normal;
}

/**
 * The path from `folder` back to the workspace root, e.g. `../../..` for `packages/tools/zoom`.
 * @param {string} folder
 * @returns {string}
 */
export function pathToRoot(folder) {
  return normalizeFolder(folder)
    .split('/')
    .map(() => '..')
    .join('/');
}

/**
 * The package.json of a workspace package: ESM, side-effect free, an exports map with types first,
 * the same four scripts everywhere (build with tsup, typecheck, test, lint).
 * @param {Omit<PackageTemplate, 'folder'>} template
 */
export function packageManifest({ name, description = '', dependencies = {}, files = ['dist', 'README.md'], extra = {} }) {
  if (!name.startsWith('@saccade/')) throw new Error(`expected a package name starting with @saccade/, received ${JSON.stringify(name)}`);
  return {
    name,
    version: '0.1.0',
    description,
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    // "@saccade/source": vitest and tsc in the workspace read src (no build between packages);
    // publishConfig.exports is what `pnpm pack` writes, so the published package points at dist only.
    exports: {
      '.': { '@saccade/source': './src/index.ts', types: './dist/index.d.ts', import: './dist/index.js' },
      './package.json': './package.json',
    },
    main: './dist/index.js',
    types: './dist/index.d.ts',
    files,
    engines: { node: '>=20.19' },
    scripts: {
      build: 'tsup',
      typecheck: 'tsc --noEmit',
      test: 'vitest run',
      lint: 'eslint .',
    },
    tsup: {
      entry: ['src/index.ts'],
      format: ['esm'],
      dts: true,
      clean: true,
      sourcemap: true,
      target: 'node20',
    },
    dependencies: sortKeys(dependencies),
    publishConfig: {
      exports: {
        '.': { types: './dist/index.d.ts', import: './dist/index.js' },
        './package.json': './package.json',
      },
    },
    ...extra,
  };
}

/**
 * Every file of a new package, by path relative to the workspace root: package.json, tsconfig.json,
 * vitest.config.ts, README.md and src/index.ts.
 * @param {PackageTemplate} template
 * @returns {Record<string, string>}
 */
export function packageFiles(template) {
  const folder = normalizeFolder(template.folder);
  const up = pathToRoot(folder);
  const { name, description = '' } = template;
  return {
    [`${folder}/package.json`]: json(packageManifest(template)),
    [`${folder}/tsconfig.json`]: json({ extends: `${up}/tsconfig.base.json`, include: ['src', 'test'] }),
    [`${folder}/vitest.config.ts`]: `export { default } from '${up}/vitest.shared.js';\n`,
    [`${folder}/README.md`]: `# ${name}\n\n${description}\n`,
    [`${folder}/src/index.ts`]: 'export {};\n',
  };
}

/**
 * JSON as the workspace writes it: two spaces, a final newline.
 * @param {unknown} value
 * @returns {string}
 */
export function json(value) {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * @template T
 * @param {Record<string, T>} record
 * @returns {Record<string, T>}
 */
export function sortKeys(record) {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
