import { createApp, Field, image, text, Tool, ToolError, type RequestContext } from '@mcpkit/core';
import { IsInt, IsNumber, IsString, Min } from 'class-validator';

class ForecastInput {
  @Field({ description: 'City name, e.g. "Paris"' })
  @IsString()
  city: string;

  @Field({ description: 'Days ahead (1-7)' })
  @IsInt()
  @Min(1)
  days: number;
}

class Forecast {
  @IsString()
  city: string;

  @IsNumber()
  celsius: number;
}

const KNOWN = new Set(['Paris', 'Oslo']);

export class WeatherTools {
  // A string becomes one text block.
  @Tool({ description: 'Says what the weather will be', annotations: { readOnlyHint: true, openWorldHint: true } })
  summary(input: ForecastInput, ctx: RequestContext): string {
    ctx.logger.debug({ city: input.city }, 'summary requested');
    if (!KNOWN.has(input.city)) throw new ToolError(`Unknown city: ${input.city}`);
    return `Sunny in ${input.city} for ${input.days} days`;
  }

  // With an output DTO: the object is validated, then sent as structuredContent plus JSON text.
  @Tool({ title: 'Forecast', output: Forecast })
  forecast(input: ForecastInput): Forecast {
    return { city: input.city, celsius: 21.5 };
  }

  // Content helpers for everything that is not plain text.
  @Tool({ description: 'A tiny chart' })
  chart() {
    return [text('Temperatures this week:'), image(new Uint8Array([137, 80, 78, 71]), 'image/png')];
  }
}

export const weatherApp = createApp({ name: 'weather', version: '1.0.0', providers: [WeatherTools] });
