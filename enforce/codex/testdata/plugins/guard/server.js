console.log("db server")
