import type { ErrorObject } from 'ajv';
import type { ValidationError } from 'class-validator';

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
  const lines: string[] = [];
  for (const error of errors) {
    const path = pointerToPath(error.instancePath);
    const params = error.params as Record<string, unknown>;
    let line: string;
    switch (error.keyword) {
      case 'required':
        line = `${join(path, String(params.missingProperty))}: is required`;
        break;
      case 'additionalProperties':
        line = `${join(path, String(params.additionalProperty))}: is not an allowed property`;
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
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

/** Flattens class-validator's error tree into the same one-line-per-field form. */
export function formatClassValidatorErrors(errors: readonly ValidationError[], parent = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : join(parent, error.property);
    for (const message of Object.values(error.constraints ?? {})) lines.push(`${path}: ${message}`);
    if (error.children?.length) lines.push(...formatClassValidatorErrors(error.children, path));
  }
  return lines;
}
