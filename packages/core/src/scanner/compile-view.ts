import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { AppViewOptions, ResourceOptions } from '../decorators/decorator-options';
import { isObject } from '../protocol/json-rpc';
import { VIEW_MIME_TYPE, VIEW_SCHEME } from '../protocol/ui-extension';
import { toViewResult, type ViewMeta } from '../results/view-result';
import { compileResource } from './compile-resource';
import type { Invoker, ResourceDefinition } from './definitions';
import type { DecoratedMethod } from './scan-providers';

const VIEW_URI = /^ui:\/\/\S+$/;
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

function invalid(method: DecoratedMethod, problem: string, fix: string): DefinitionError {
  return new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has ${problem}.`, [fix]);
}

/**
 * An option made of known fields (`csp`, `permissions`): the fields set, each checked by `valid`
 * and copied by `copy`; undefined when none is set. Anything else throws `refused`, given the
 * names that are not fields.
 */
function knownFields(
  value: unknown,
  fields: readonly string[],
  valid: (field: unknown) => boolean,
  copy: (field: unknown) => unknown,
  refused: (unknown: string[]) => DefinitionError,
): Record<string, unknown> | undefined {
  if (!isObject(value)) throw refused([]);
  const unknown = Object.keys(value).filter((key) => !fields.includes(key));
  const set = fields.filter((key) => value[key] !== undefined);
  if (unknown.length > 0 || !set.every((key) => valid(value[key]))) throw refused(unknown);
  return set.length > 0 ? Object.fromEntries(set.map((key) => [key, copy(value[key])])) : undefined;
}

// One CSP source each (`https://api.example.com`, `https://*.example.com`, `data:`): printable ASCII
// without the separators a host joins them with, so no entry can end a directive and start another.
const CSP_SOURCE = /^[!-~]+$/;
const isCspSource = (value: unknown): boolean => typeof value === 'string' && CSP_SOURCE.test(value) && !/[;,'"]/.test(value);
const isOriginList = (field: unknown): boolean => Array.isArray(field) && field.every(isCspSource);
const unknownNote = (unknown: string[]): string => (unknown.length > 0 ? ` (${unknown.join(', ')} unknown)` : '');

/** The view's `_meta.ui` (the extension's `McpUiResourceMeta`) from its options, each field checked; undefined when it says nothing. */
function viewMeta(options: AppViewOptions, method: DecoratedMethod): ViewMeta | undefined {
  const ui: Record<string, unknown> = {};
  const { csp, permissions, domain, prefersBorder } = options;
  if (csp !== undefined) {
    const lists = knownFields(
      csp,
      CSP_KEYS,
      isOriginList,
      (origins) => [...(origins as string[])],
      (unknown) =>
        invalid(
          method,
          `csp ${JSON.stringify(csp)}${unknownNote(unknown)}`,
          `Give lists of origins (one per entry, without spaces, ; or ,) under ${CSP_KEYS.join(', ')}: ${method.label}({ csp: { connectDomains: ['https://api.example.com'] } }).`,
        ),
    );
    if (lists !== undefined) ui.csp = lists;
  }
  if (permissions !== undefined) {
    const granted = knownFields(
      permissions,
      PERMISSION_KEYS,
      isObject,
      () => ({}),
      (unknown) =>
        invalid(
          method,
          `permissions ${JSON.stringify(permissions)}${unknownNote(unknown)}`,
          `Ask for ${PERMISSION_KEYS.join(', ')}, each as {}: ${method.label}({ permissions: { clipboardWrite: {} } }).`,
        ),
    );
    if (granted !== undefined) ui.permissions = granted;
  }
  if (domain !== undefined) {
    if (!isCspSource(domain))
      throw invalid(method, `domain ${JSON.stringify(domain)}`, 'Give the sandbox origin as the host documents it: one origin, without spaces or separators.');
    ui.domain = domain;
  }
  if (prefersBorder !== undefined) {
    if (typeof prefersBorder !== 'boolean') throw invalid(method, `prefersBorder ${JSON.stringify(prefersBorder)}`, 'Say true, false, or leave it out.');
    ui.prefersBorder = prefersBorder;
  }
  return Object.keys(ui).length > 0 ? ui : undefined;
}

/**
 * Compiles one `@AppView` method into the resource that serves it: a `ui://` URI, MIME type
 * `text/html;profile=mcp-app`, `_meta.ui` on the list entry and on the content item it reads.
 */
export function compileView(method: DecoratedMethod): ResourceDefinition {
  const options = method.options as unknown as AppViewOptions;
  if (typeof options.uri !== 'string' || !VIEW_URI.test(options.uri)) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_URI,
      `${method.site} has the URI ${JSON.stringify(options.uri)}; a view's URI starts with ${VIEW_SCHEME}.`,
      [`Name it under ${VIEW_SCHEME}, without spaces: ${method.label}({ uri: 'ui://notes/board' }).`, 'For a resource that is not a view, use @Resource.'],
    );
  }
  if (isObject(options._meta) && options._meta.ui !== undefined) {
    throw invalid(method, '_meta.ui', `Say it with the options, which become _meta.ui: ${method.label}({ uri, csp, permissions, domain, prefersBorder }).`);
  }
  const ui = viewMeta(options, method);
  const { csp: _csp, permissions: _permissions, domain: _domain, prefersBorder: _prefersBorder, ...rest } = options;
  const resource: ResourceOptions = { ...rest, mimeType: VIEW_MIME_TYPE };
  if (ui !== undefined) resource._meta = { ...options._meta, ui };
  const compiled = compileResource({ ...method, options: resource as unknown as Record<string, unknown> });
  const read = compiled.invoke;
  // Awaited, not tested with instanceof: a reader's promise may come from another realm (fs/promises under a test runner's VM).
  const invoke: Invoker = async (input, ctx) => toViewResult(await read(input, ctx), options.uri, ui, method.site);
  return Object.freeze({ ...compiled, invoke });
}
