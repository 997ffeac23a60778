// stand-in server
