import { join } from 'node:path';
import ts from 'typescript';

/** An exported declaration without a TSDoc comment: its name and the file that declares it. */
export interface UndocumentedExport {
  name: string;
  file: string;
}

/**
 * The declarations each package exports from `src/index.ts` that carry no `/** … *\/` comment,
 * keyed by package folder. One program over every entry shares the parsed libraries; exports
 * re-exported from another package are that package's to document.
 */
export function undocumentedExports(packageDirs: readonly string[]): Map<string, UndocumentedExport[]> {
  const entries = packageDirs.map((dir) => join(dir, 'src', 'index.ts'));
  const program = ts.createProgram(entries, {
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
    const source = program.getSourceFile(entries[index]!);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`expected ${entries[index]} to be a module with exports; TypeScript could not read it`);
    const sourceFolder = join(dir, 'src');
    const missing: UndocumentedExport[] = [];
    for (const exported of checker.getExportsOfModule(module)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = (target.declarations ?? []).filter((declaration) => declaration.getSourceFile().fileName.startsWith(sourceFolder));
      if (declarations.length === 0) continue;
      if (!declarations.some(hasDocComment)) missing.push({ name: exported.name, file: declarations[0]!.getSourceFile().fileName.slice(dir.length + 1) });
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
