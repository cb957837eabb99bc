// mimetext calls core-js's String.prototype.trim through @babel/runtime-corejs3 (116 KiB of
// core-js in the Worker's bundle); workerd has trim natively. Babel's helper answers the method.
export default function trimInstanceProperty(it) {
  return it.trim;
}
