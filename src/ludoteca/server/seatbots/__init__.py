"""seatbots"""
