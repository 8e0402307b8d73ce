import { createApp, Tool, type PrecompiledValidators } from '@mcpkit/core';
import { IsEmail, IsString, MinLength } from 'class-validator';

class InviteInput {
  @IsString()
  @MinLength(1)
  name: string;

  @IsEmail()
  email: string;
}

class Invitations {
  @Tool({ description: 'Invites someone to the workspace' })
  invite(input: InviteInput) {
    return `Invited ${input.name} <${input.email}>`;
  }
}

// The entry the CLI reads: `mcpkit build-validators dist/app.js --export createInvitesApp
// --out dist/validators.generated.js` calls it with no validators, and writes the ajv code of
// every schema it validates with. The server (a Worker, say) passes that module back in.
export function createInvitesApp(validators?: PrecompiledValidators) {
  return createApp({ name: 'invites', version: '1.0.0', providers: [Invitations], validators });
}
