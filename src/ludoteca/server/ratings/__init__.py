"""ratings"""
