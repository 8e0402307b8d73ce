import { APP_VIEW_METADATA } from '../metadata/metadata-keys';
import type { AppViewOptions } from './decorator-options';
import { assertIsMethod } from './assert-method';

/**
 * Declares a method as the HTML of an MCP Apps view (extension `io.modelcontextprotocol/ui`): a
 * `ui://` resource of MIME type `text/html;profile=mcp-app` whose `_meta.ui` carries the view's
 * CSP origins, permissions, domain and border preference. Return the HTML as a string (or bytes);
 * link tools to it with `@Tool({ ui: { view: uri } })`.
 *
 * @example
 * class Board {
 *   @AppView({ uri: 'ui://notes/board', title: 'Notes board', prefersBorder: true })
 *   board() {
 *     return readFile(join(__dirname, 'board.html'), 'utf8');
 *   }
 * }
 */
export function AppView(options: AppViewOptions): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    assertIsMethod('@AppView', target, propertyKey, descriptor);
    Reflect.defineMetadata(APP_VIEW_METADATA, { ...options }, target, propertyKey);
  };
}
