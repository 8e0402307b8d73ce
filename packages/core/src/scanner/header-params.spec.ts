import 'reflect-metadata';
import { IsInt, IsNumber, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Field } from '../decorators/field.decorator';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { dtoToJsonSchema } from '../schema/dto-to-json-schema';
import { headerParamsOf } from './header-params';

class Inner {
  @Field({ header: 'Zone' })
  @IsString()
  zone: string;
}

class Routed {
  @Field({ header: 'Region' })
  @IsString()
  region: string;

  @Field({ header: 'Priority', nullable: true })
  @IsInt()
  priority: number | null;

  @ValidateNested()
  @Type(() => Inner)
  where: Inner;
}

function failure(schema: Record<string, unknown>): DefinitionError {
  try {
    headerParamsOf(schema, 'Tools.route');
  } catch (error) {
    if (error instanceof DefinitionError) return error;
  }
  throw new Error('expected a DefinitionError');
}

describe('x-mcp-header annotations', () => {
  it('publishes @Field({ header }) and finds every annotation along properties chains', () => {
    const { schema } = dtoToJsonSchema(Routed);
    expect((schema.properties as Record<string, unknown>).region).toEqual({ type: 'string', 'x-mcp-header': 'Region' });
    expect(headerParamsOf(schema, 'Tools.route')).toEqual([
      { header: 'Region', path: ['region'], type: 'string' },
      { header: 'Priority', path: ['priority'], type: 'integer' },
      { header: 'Zone', path: ['where', 'zone'], type: 'string' },
    ]);
  });

  it.each([
    ['an empty name', { value: { type: 'string', 'x-mcp-header': '' } }, 'must be a non-empty HTTP token'],
    ['a space', { value: { type: 'string', 'x-mcp-header': 'My Region' } }, 'must be a non-empty HTTP token'],
    ['a colon', { value: { type: 'string', 'x-mcp-header': 'Region:Primary' } }, 'must be a non-empty HTTP token'],
    ['non-ASCII', { value: { type: 'string', 'x-mcp-header': 'Région' } }, 'must be a non-empty HTTP token'],
    ['a number property', { score: { type: 'number', 'x-mcp-header': 'Score' } }, 'needs a string, integer or boolean property'],
    ['an object property', { data: { type: 'object', 'x-mcp-header': 'Data' } }, 'needs a string, integer or boolean property'],
    ['an array property', { items: { type: 'array', 'x-mcp-header': 'Items' } }, 'needs a string, integer or boolean property'],
    [
      'a duplicate in another case',
      { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } },
      'mirrors both a and b',
    ],
  ])('rejects %s at start-up', (_case, properties, message) => {
    const error = failure({ type: 'object', properties });
    expect(error.code).toBe(DefinitionErrorCode.INVALID_SCHEMA);
    expect(error.message).toContain(message);
  });

  it('rejects a header on a number field of a DTO, naming the DTO and the field, as the schema is built', () => {
    class Bad {
      @Field({ header: 'Score' })
      @IsNumber()
      score: number;
    }
    expect(() => dtoToJsonSchema(Bad)).toThrow('Bad.score has @Field({ header: "Score" }) but is not one string, integer or boolean.');
  });
});
