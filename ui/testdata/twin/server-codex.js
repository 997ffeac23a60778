console.log('codex')
