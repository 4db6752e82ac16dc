"""playnow"""
