// Babel's defineProperty helper, without the core-js that @babel/runtime-corejs3 brings along.
export default function defineProperty(obj, key, value) {
  if (key in obj)
    Object.defineProperty(obj, key, { value, enumerable: true, configurable: true, writable: true });
  else obj[key] = value;
  return obj;
}
