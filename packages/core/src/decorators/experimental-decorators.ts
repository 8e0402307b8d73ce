import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';

/** The context object a standard (TC39) decorator gets as its second argument. */
interface StandardDecoratorContext {
  kind: string;
  name?: string | symbol;
}

function isStandardContext(value: unknown): value is StandardDecoratorContext {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/** What to do when decorators were compiled as standard ones: the start-up error's fixes, and the crash note's. */
export const STANDARD_DECORATOR_FIXES: readonly string[] = [
  'Set "experimentalDecorators": true and "emitDecoratorMetadata": true in the tsconfig.json your compiler or runner reads.',
  'A runner started from another folder (an MCP client launching tsx or Bun) may not find that tsconfig: build with tsc and run the JavaScript, or point the runner at it (tsx --tsconfig <path>, bun --tsconfig-override <path>).',
  'esbuild and tsx do not emit design types: give each handler its input explicitly (@Tool({ input: MyInput })).',
];

/**
 * mcpkit's decorators are TypeScript's experimental ones, which also emit the design types the
 * scanner reads. A compiler that did not see `experimentalDecorators` (a tsconfig it did not find,
 * esbuild or tsx started from another folder, TypeScript 5's default) calls them as standard
 * decorators, `(value, context)`: say so at decoration time rather than fail on a context object
 * later (`@Tool is on ping.[object Object]`).
 */
export function assertExperimentalDecorators(decorator: string, second: unknown): void {
  if (!isStandardContext(second)) return;
  const member = second.name === undefined ? second.kind : `${second.kind} ${String(second.name)}`;
  throw new DefinitionError(
    DefinitionErrorCode.STANDARD_DECORATORS,
    `${decorator} on ${member} was compiled as a standard (TC39) decorator; mcpkit's decorators are TypeScript's experimental decorators, with the design types they emit.`,
    [...STANDARD_DECORATOR_FIXES],
  );
}
