"""Summaries of exam scores read from 'name,score' lines."""
