import WebCMPBridge

print("webcmp: not implemented yet")
