"""alerts"""
