// Writes src/modules/openapi/response-schemas.json: the JSON schema of what each controller
// method answers (its declared return type, unwrapped from Promise and ApiResult), read with the
// TypeScript compiler from the controllers and the *.wire.ts types they return. Interfaces have
// no runtime shape, so this runs at development time; test/openapi.test.ts fails when the file is stale.
// Usage: node scripts/openapi-response-schemas.js [--check]
const path = require('node:path');
const { readFileSync, writeFileSync } = require('node:fs');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const OUTPUT = path.join(ROOT, 'src', 'modules', 'openapi', 'response-schemas.json');
const ROUTE_DECORATORS = new Set(['Get', 'Post', 'Put', 'Delete', 'Patch', 'All']);
/** Wrappers whose first type argument is the answer's `data`. */
const UNWRAP = new Set(['Promise', 'ApiResult', 'ApiResultWithExtras']);

function controllerFiles(dir) {
  const found = [];
  for (const entry of ts.sys.readDirectory(dir, ['.ts'])) if (entry.endsWith('.controller.ts')) found.push(entry);
  return found.sort();
}

function decoratorName(decorator) {
  const call = decorator.expression;
  return ts.isCallExpression(call) && ts.isIdentifier(call.expression) ? call.expression.text : undefined;
}

/** Builds schemas for types, naming interfaces and type aliases as components. */
function schemaWriter(checker) {
  const components = {};

  function componentName(type) {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || type.flags & ts.TypeFlags.Union) return undefined;
    const name = symbol.getName();
    if (!name || name.startsWith('__') || name === 'Array' || name === 'Record' || name === 'Promise' || name === 'Date') return undefined;
    // A generic's arguments join its name: Page<TokenView> is Page_TokenView.
    const typeArguments = type.aliasSymbol ? (type.aliasTypeArguments ?? []) : type.target ? checker.getTypeArguments(type) : [];
    const argumentNames = typeArguments.map((argument) => componentName(argument) ?? checker.typeToString(argument).replace(/[^A-Za-z0-9]/g, ''));
    return [name, ...argumentNames].join('_');
  }

  function toSchema(type, depth = 0) {
    if (depth > 12) return {};
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return { nullable: true };
    if (flags & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [type.value] };
    if (flags & ts.TypeFlags.NumberLiteral) return { type: 'number', enum: [type.value] };
    if (flags & ts.TypeFlags.BooleanLiteral) return { type: 'boolean' };
    if (flags & ts.TypeFlags.StringLike) return { type: 'string' };
    if (flags & ts.TypeFlags.NumberLike) return { type: 'number' };
    if (flags & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
    if (flags & ts.TypeFlags.BigIntLike) return { type: 'integer' };
    if (type.isUnion()) {
      const members = type.types.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)));
      const nullable = members.length !== type.types.length;
      if (members.every((member) => member.flags & ts.TypeFlags.BooleanLiteral)) return nullable ? { type: 'boolean', nullable } : { type: 'boolean' };
      if (members.length > 0 && members.every((member) => member.flags & ts.TypeFlags.StringLiteral)) {
        return { type: 'string', enum: members.map((member) => member.value), ...(nullable ? { nullable } : {}) };
      }
      if (members.length > 0 && members.every((member) => member.flags & ts.TypeFlags.NumberLiteral)) {
        return { type: 'number', enum: members.map((member) => member.value), ...(nullable ? { nullable } : {}) };
      }
      const schemas = members.map((member) => toSchema(member, depth + 1));
      const single = schemas.length === 1 ? schemas[0] : { oneOf: schemas };
      return nullable ? (single.$ref ? { allOf: [single], nullable } : { ...single, nullable }) : single;
    }
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      const [element] = checker.getTypeArguments(type);
      return { type: 'array', items: element ? toSchema(element, depth + 1) : {} };
    }
    if (flags & ts.TypeFlags.Object) {
      const symbol = type.getSymbol();
      if (symbol && symbol.getName() === 'Date') return { type: 'string', format: 'date-time' };
      const name = componentName(type);
      if (name) {
        if (!(name in components)) {
          components[name] = {};
          components[name] = objectSchema(type, depth);
        }
        return { $ref: `#/components/schemas/${name}` };
      }
      return objectSchema(type, depth);
    }
    return {};
  }

  function objectSchema(type, depth) {
    const properties = {};
    const required = [];
    for (const property of checker.getPropertiesOfType(type)) {
      // Symbol-keyed members (Symbol.toStringTag, as `__@toStringTag@<id>`) never reach JSON, and their ids move with every change to the program.
      if (property.getName().startsWith('__@')) continue;
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (!declaration) continue;
      const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration);
      if (propertyType.getCallSignatures().length > 0) continue;
      properties[property.getName()] = toSchema(propertyType, depth + 1);
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.getName());
    }
    const schema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    const index = checker.getIndexInfosOfType(type)[0];
    if (index) schema.additionalProperties = toSchema(index.type, depth + 1);
    return schema;
  }

  return { toSchema, components };
}

/** The answers of every routed controller method, keyed `Controller_method` like the document's operation ids. */
function generateResponseSchemas() {
  const files = controllerFiles(path.join(ROOT, 'src'));
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const program = ts.createProgram(files, { ...config.options, noEmit: true, incremental: false });
  const checker = program.getTypeChecker();
  const writer = schemaWriter(checker);
  const operations = {};
  for (const file of files) {
    const source = program.getSourceFile(file);
    ts.forEachChild(source, (node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !member.name || !ts.isIdentifier(member.name)) continue;
        const decorators = ts.getDecorators(member) ?? [];
        if (!decorators.some((decorator) => ROUTE_DECORATORS.has(decoratorName(decorator)))) continue;
        const signature = checker.getSignatureFromDeclaration(member);
        if (!signature) continue;
        let answer = checker.getReturnTypeOfSignature(signature);
        for (;;) {
          const symbol = answer.getSymbol();
          if (!symbol || !UNWRAP.has(symbol.getName())) break;
          const [inner] = checker.getTypeArguments(answer);
          if (!inner) break;
          answer = inner;
        }
        operations[`${node.name.text}_${member.name.text}`] = writer.toSchema(answer);
      }
    });
  }
  const sorted = (object) => Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]]));
  return { operations: sorted(operations), components: sorted(writer.components) };
}

module.exports = { generateResponseSchemas, OUTPUT };

if (require.main === module) {
  const text = `${JSON.stringify(generateResponseSchemas(), null, 1)}\n`;
  if (process.argv.includes('--check')) {
    const current = readFileSync(OUTPUT, 'utf8');
    if (current !== text) {
      console.error(`${path.relative(ROOT, OUTPUT)} is stale: run node scripts/openapi-response-schemas.js`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUTPUT, text);
    console.log(`wrote ${path.relative(ROOT, OUTPUT)}`);
  }
}
