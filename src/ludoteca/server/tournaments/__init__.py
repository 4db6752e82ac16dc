"""tournaments"""
