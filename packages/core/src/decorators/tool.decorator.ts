import { TOOL_METADATA } from '../metadata/metadata-keys';
import type { ToolOptions } from './decorator-options';
import { assertIsMethod } from './assert-method';

/**
 * Declares a method as an MCP tool. The method receives the validated input DTO and the request
 * context; what it returns becomes the `CallToolResult`.
 *
 * @example
 * class Weather {
 *   @Tool({ description: 'Forecast for a city', annotations: { readOnlyHint: true } })
 *   forecast(input: ForecastInput, ctx: RequestContext) {
 *     return `Sunny in ${input.city}`;
 *   }
 * }
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    assertIsMethod('@Tool', target, propertyKey, descriptor);
    Reflect.defineMetadata(TOOL_METADATA, { ...options }, target, propertyKey);
  };
}
