import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { checkCacheHint } from '../results/cache-hints';
import type { ResourceOptions, ResourceTemplateOptions } from '../decorators/decorator-options';
import type { Resource, ResourceTemplate } from '../protocol/mcp-types';
import { UriTemplate, UriTemplateSyntaxError } from '../uri-template/uri-template';
import { bindHandler, copyCommonFields } from './common';
import { deepFreeze } from './compile-tool';
import { readPolicy } from './read-policy';
import type { ResourceDefinition, ResourceTemplateDefinition } from './definitions';
import type { DecoratedMethod } from './scan-providers';

const URI_WITH_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;

/** Compiles one `@Resource` method. */
export function compileResource(method: DecoratedMethod): ResourceDefinition {
  const options = method.options as unknown as ResourceOptions;
  if (typeof options.uri !== 'string' || !URI_WITH_SCHEME.test(options.uri)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_URI, `${method.site} has the URI ${JSON.stringify(options.uri)}, which is not an absolute URI.`, [
      `Give a scheme and no spaces: ${method.label}({ uri: 'docs://readme' }).`,
      // `@Resource` → `@ResourceTemplate`, `defineResource` → `defineResourceTemplate`.
      `For URIs with variables use ${method.label}Template({ uriTemplate: … }).`,
    ]);
  }
  const entry: Resource = { uri: options.uri, name: options.name ?? method.methodName, ...copyCommonFields(options) };
  if (options.mimeType !== undefined) entry.mimeType = options.mimeType;
  if (options.size !== undefined) entry.size = options.size;
  if (options.annotations !== undefined) entry.annotations = { ...options.annotations };
  checkCacheHint(options.cache, method.site);
  return Object.freeze({
    uri: options.uri,
    owner: method.owner,
    entry: deepFreeze(entry),
    invoke: bindHandler(method),
    cache: options.cache && Object.freeze({ ...options.cache }),
    policy: readPolicy(method),
  });
}

/** Compiles one `@ResourceTemplate` method, parsing its RFC 6570 template. */
export function compileResourceTemplate(method: DecoratedMethod): ResourceTemplateDefinition {
  const options = method.options as unknown as ResourceTemplateOptions;
  let template: UriTemplate;
  try {
    if (typeof options.uriTemplate !== 'string' || !URI_WITH_SCHEME.test(options.uriTemplate.replace(/\{[^}]*\}/g, 'x'))) {
      throw new UriTemplateSyntaxError(`${JSON.stringify(options.uriTemplate)} is not an absolute URI template`);
    }
    template = UriTemplate.parse(options.uriTemplate);
  } catch (error) {
    if (!(error instanceof UriTemplateSyntaxError)) throw error;
    throw new DefinitionError(DefinitionErrorCode.MALFORMED_URI_TEMPLATE, `${method.site}: ${error.message}.`, [
      "Write an RFC 6570 template with a scheme: 'notes://{id}', 'files:///{+path}', 'search://q{?text,limit}'.",
      'Variable names use letters, digits and "_"; every "{" needs its "}".',
    ]);
  }
  const entry: ResourceTemplate = { uriTemplate: options.uriTemplate, name: options.name ?? method.methodName, ...copyCommonFields(options) };
  if (options.mimeType !== undefined) entry.mimeType = options.mimeType;
  if (options.annotations !== undefined) entry.annotations = { ...options.annotations };
  checkCacheHint(options.cache, method.site);
  return Object.freeze({
    template,
    owner: method.owner,
    entry: deepFreeze(entry),
    invoke: bindHandler(method),
    cache: options.cache && Object.freeze({ ...options.cache }),
    policy: readPolicy(method),
  });
}
