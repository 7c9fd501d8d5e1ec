import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** An exported declaration without a TSDoc comment: its name and the file that declares it. */
export interface UndocumentedExport {
  name: string;
  file: string;
}

/**
 * The source files of a package's public entries: each `@saccade/source` target of its exports map
 * (`.`, `./testing`…), or `src/index.ts` for a folder without a manifest.
 */
export function packageEntries(dir: string): string[] {
  const manifest = join(dir, 'package.json');
  const exports = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown }).exports : undefined;
  const sources =
    typeof exports === 'object' && exports !== null
      ? Object.values(exports).flatMap((target: unknown) => {
          const source = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)['@saccade/source'] : undefined;
          return typeof source === 'string' ? [join(dir, source)] : [];
        })
      : [];
  return sources.length > 0 ? sources : [join(dir, 'src', 'index.ts')];
}

/**
 * The declarations each package exports from its public entries (`src/index.ts` and any other
 * subpath such as `./testing`, see {@link packageEntries}) that carry no `/** … *\/` comment, keyed
 * by package folder. One program over every entry shares the parsed libraries; exports re-exported
 * from another package are that package's to document.
 */
export function undocumentedExports(packageDirs: readonly string[]): Map<string, UndocumentedExport[]> {
  const entriesByDir = packageDirs.map((dir) => packageEntries(dir));
  const program = ts.createProgram(entriesByDir.flat(), {
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['@saccade/source'],
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const result = new Map<string, UndocumentedExport[]>();
  packageDirs.forEach((dir, index) => {
    const sourceFolder = join(dir, 'src');
    const missing: UndocumentedExport[] = [];
    for (const entry of entriesByDir[index]!) {
      const source = program.getSourceFile(entry);
      const module = source && checker.getSymbolAtLocation(source);
      if (!module) throw new Error(`expected ${entry} to be a module with exports; TypeScript could not read it`);
      for (const exported of checker.getExportsOfModule(module)) {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declarations = (target.declarations ?? []).filter((declaration) => declaration.getSourceFile().fileName.startsWith(sourceFolder));
        if (declarations.length === 0) continue;
        const file = declarations[0]!.getSourceFile().fileName.slice(dir.length + 1);
        if (!declarations.some(hasDocComment) && !missing.some((known) => known.name === exported.name && known.file === file)) missing.push({ name: exported.name, file });
      }
    }
    result.set(dir, missing);
  });
  return result;
}

function hasDocComment(declaration: ts.Declaration): boolean {
  // A `const` carries its comment on the statement, two levels up.
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ts.getJSDocCommentsAndTags(node).length > 0;
}
