console.log('claude')
