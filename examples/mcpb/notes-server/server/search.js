// Loaded by index.js in a real server; part of what an approval binds.
module.exports = function search(dirs, text) { return []; };
