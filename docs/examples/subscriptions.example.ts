import { createApp, Resource } from '@mcpkit/core';

let temperature = 21;

export class Thermostat {
  @Resource({ uri: 'home://temperature', mimeType: 'text/plain', description: 'Current temperature' })
  current(): string {
    return `${temperature} °C`;
  }
}

export const homeApp = createApp({ name: 'home', version: '1.0.0', providers: [Thermostat], subscriptions: true });

/** Called by whatever measures: clients subscribed to the resource hear about it. */
export function measured(value: number): void {
  temperature = value;
  homeApp.resourceUpdated('home://temperature');
}
