import ValidatorSelector from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Compile<F> = (routeSchema: unknown) => F;
type Validator = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * Fastify's own compilers (ajv for validation, fast-json-stringify for responses, with the same options and shared
 * schemas), each route's function built on its first request instead of at start-up. Compiling the ~150 route
 * schemas eagerly was a quarter of the start-up CPU (issue 13), and most instances never see most routes.
 * The functions are the same ones Fastify would build; only the moment differs. A schema that cannot compile
 * answers 500 on its route's first request instead of stopping the start (the route tests compile every one).
 */
export function lazySchemaCompilers() {
  const validators = ValidatorSelector();
  const serializers = SerializerSelector();
  return {
    buildValidator(externalSchemas: unknown, ajvOptions: unknown): Compile<Validator> {
      const compile = (validators as (...a: unknown[]) => Compile<Validator>)(externalSchemas, ajvOptions);
      return (routeSchema) => {
        let fn: Validator | undefined;
        // Fastify reads `errors` off the function it was given (ajv's convention), so they are copied across.
        const lazy: Validator = (data) => {
          fn ??= compile(routeSchema);
          const ok = fn(data);
          lazy.errors = fn.errors;
          return ok;
        };
        return lazy;
      };
    },
    buildSerializer(externalSchemas: unknown, serializerOptions: unknown): Compile<(data: unknown) => string> {
      const compile = (serializers as (...a: unknown[]) => Compile<(data: unknown) => string>)(
        externalSchemas,
        serializerOptions,
      );
      return (routeSchema) => {
        let fn: ((data: unknown) => string) | undefined;
        return (data) => (fn ??= compile(routeSchema))(data);
      };
    },
  };
}
