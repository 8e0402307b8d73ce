import { createApp, Field, Tool, type RequestContext } from '@mcpkit/core';
import { IsBoolean, IsIn, IsString } from 'class-validator';

class DeployInput {
  @IsString()
  service: string;
}

// The form the user fills in: flat primitive fields, as form elicitation requires.
class DeployConfirmation {
  @Field({ description: 'Deploy now?' })
  @IsBoolean()
  confirm: boolean;

  @Field({ description: 'Target environment', default: 'staging' })
  @IsIn(['staging', 'production'])
  environment: string;
}

export class Deployments {
  @Tool({ description: 'Deploys a service after asking the user' })
  async deploy(input: DeployInput, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit(`Deploy ${input.service}?`, DeployConfirmation);
    if (answer.action !== 'accept' || !answer.content.confirm) return 'Deployment cancelled.';
    return `Deploying ${input.service} to ${answer.content.environment}`;
  }

  @Tool({ description: 'Writes release notes with the client model' })
  async releaseNotes(input: DeployInput, ctx: RequestContext): Promise<string> {
    const [workspace] = await ctx.roots();
    const reply = await ctx.sample(`Write one line of release notes for ${input.service} in ${workspace?.uri ?? 'an unknown place'}`, { maxTokens: 100 });
    return !Array.isArray(reply.content) && reply.content.type === 'text' ? reply.content.text : '';
  }
}

export const deployApp = createApp({ name: 'deploy', version: '1.0.0', providers: [Deployments] });
