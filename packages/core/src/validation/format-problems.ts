import type { ErrorObject } from 'ajv';
import type { ValidationError } from 'class-validator';
import { clip } from '../errors/clip';

/** Lines listed at most: a call with thousands of bad keys gets a short answer, not one per key. */
export const MAX_PROBLEMS = 20;

function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function join(path: string, child: string): string {
  return path ? `${path}.${child}` : child;
}

/** One line per bad field, readable by a model that wants to correct its call. */
export function formatAjvErrors(errors: readonly ErrorObject[]): string[] {
  const lines = new Set<string>();
  let index = 0;
  for (; index < errors.length && lines.size < MAX_PROBLEMS; index++) {
    const error = errors[index];
    // Paths and property names come from the client: quoted clipped.
    const path = clip(pointerToPath(error.instancePath));
    const params = error.params as Record<string, unknown>;
    let line: string;
    switch (error.keyword) {
      case 'required':
        line = `${join(path, clip(String(params.missingProperty)))}: is required`;
        break;
      case 'additionalProperties':
        line = `${join(path, clip(String(params.additionalProperty)))}: is not an allowed property`;
        break;
      case 'enum':
        line = `${path || '(root)'}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'format':
        line = `${path || '(root)'}: must be a valid ${String(params.format)}`;
        break;
      default:
        line = `${path || '(root)'}: ${error.message ?? 'is invalid'}`;
    }
    lines.add(line);
  }
  return withRest([...lines], errors.length - index);
}

function withRest(lines: string[], rest: number): string[] {
  if (rest > 0) lines.push(`…and ${rest} more problem${rest === 1 ? '' : 's'}`);
  return lines;
}

/** Flattens class-validator's error tree into the same one-line-per-field form. */
export function formatClassValidatorErrors(errors: readonly ValidationError[]): string[] {
  const lines: string[] = [];
  const rest = collectClassValidatorErrors(errors, '', lines);
  return withRest(lines, rest);
}

/** Appends up to MAX_PROBLEMS lines; returns how many did not fit. */
function collectClassValidatorErrors(errors: readonly ValidationError[], parent: string, lines: string[]): number {
  let rest = 0;
  for (const error of errors) {
    const path = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : join(parent, clip(error.property));
    for (const message of Object.values(error.constraints ?? {})) {
      if (lines.length < MAX_PROBLEMS) lines.push(`${path}: ${clip(message, 400)}`);
      else rest += 1;
    }
    if (error.children?.length) rest += collectClassValidatorErrors(error.children, path, lines);
  }
  return rest;
}
