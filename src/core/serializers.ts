import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * The `$id` a response schema without one is compiled under. fast-json-stringify otherwise names each
 * compilation's root `__fjs_root_<n>` and makes it the first property of a new empty object (its
 * schema store): a new shape each time, a transition more from the empty object's shape.
 */
const ROOT_ID = 'purser-response';

/**
 * Response serializers compiled once per distinct schema (and set of shared schemas), not once per
 * route and status (most routes answer their errors with the same bodies), each under one root
 * name. V8 keeps at most 1,536 transitions from the empty object's shape; at startup a thousand
 * compilations, each adding its own, filled them. Until the next full collection cleared the dead
 * ones, every object built up from `{}`, such as each request's headers (Node's `req.headers`), then
 * got shapes of its own: property access went megamorphic and young collections promoted each
 * request's objects, at about 1.6 × the CPU a request (docs/benchmarks.md, "The empty object's
 * transitions").
 */
export function serializersBySchema(): SerializerSelector.SerializerFactory {
  const build = SerializerSelector();
  // Fastify asks for a compiler per route, each time with its own copy of the shared schemas.
  const bySharedSchemas = new Map<string, Map<string, SerializerSelector.Serializer>>();
  return (externalSchemas, options) => {
    const shared = JSON.stringify([externalSchemas, options]);
    const known = bySharedSchemas.get(shared) ?? new Map<string, SerializerSelector.Serializer>();
    bySharedSchemas.set(shared, known);
    const compile = build(externalSchemas, options);
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serializer = known.get(key);
      if (!serializer) {
        const schema = route.schema as { $id?: unknown } | undefined;
        serializer = compile(
          schema?.$id === undefined ? { ...route, schema: { ...schema, $id: ROOT_ID } } : route,
        );
        known.set(key, serializer);
      }
      return serializer;
    };
  };
}
