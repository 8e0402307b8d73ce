import type Ajv2020 from 'ajv/dist/2020';
import { isSchemaObject } from './schema-view';

/**
 * Whether a value meets a schema, by ajv (the validator core serves with), and where it fails:
 * the JSON pointers of the failing places (a missing or unexpected property's own pointer).
 */
export type SchemaCheck = (value: unknown) => { valid: boolean; failures: string[] };

/**
 * Compiles schemas with ajv (2020-12, formats) as core does, loaded on first use: only a
 * breaking change needs a checked witness. A schema ajv refuses has no check (undefined).
 */
export class SchemaChecker {
  private ajv: Ajv2020 | undefined;

  check(schema: unknown): SchemaCheck | undefined {
    // A draft's $schema URI is unknown to the 2020-12 validator; the keywords read alike.
    const own = isSchemaObject(schema) ? (({ $schema: _schema, ...rest }) => rest)(schema) : schema;
    try {
      const validate = this.instance().compile(own as object);
      return (value) => {
        if (validate(value) === true) return { valid: true, failures: [] };
        const failures = (validate.errors ?? []).map((error) => {
          const key =
            (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
            (error.params as { additionalProperty?: string }).additionalProperty;
          return key === undefined ? error.instancePath : `${error.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        });
        return { valid: false, failures };
      };
    } catch {
      return undefined;
    }
  }

  private instance(): Ajv2020 {
    if (this.ajv) return this.ajv;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { default: Ajv } = require('ajv/dist/2020') as { default: typeof Ajv2020 };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { default: addFormats } = require('ajv-formats') as { default: (ajv: Ajv2020) => Ajv2020 };
    this.ajv = new Ajv({ strict: false, allErrors: true, addUsedSchema: false });
    addFormats(this.ajv);
    return this.ajv;
  }
}
